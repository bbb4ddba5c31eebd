#pragma once
// A tab widget as wide as its shown page needs, not its widest: hidden pages claim no width, so
// one wide page (the size sweep) does not push another (the Lab) past the window's edge.
class QTabWidget;

namespace fusescope {

void widthFollowsShownPage(QTabWidget* tabs);

}  // namespace fusescope
