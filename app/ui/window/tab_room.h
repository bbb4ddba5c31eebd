#pragma once
// A view that needs height more than the views beside it (the memory stage, the tile explorer)
// gets most of its vertical splitter while its tab is shown; the user's split returns when
// another tab is chosen. With `foldOthersWhenShort`, on a short screen (where the other views'
// least heights would leave the page under two thirds) the others fold away instead.
class QTabWidget;
class QWidget;

namespace fusescope {

void giveRoomWhileShown(QTabWidget* tabs, QWidget* page, bool foldOthersWhenShort = false);

}  // namespace fusescope
