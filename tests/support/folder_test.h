#pragma once
// A GoogleTest fixture with its own temporary folder, for tests of saves and loads: every file
// they make or refuse lies inside it.
#include <gtest/gtest.h>

#include <QTemporaryDir>

#include "support/folder_contents.h"

namespace testsupport {

class FolderTest : public testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(dir_.isValid()); }
    QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }
    QStringList entries() const { return entriesOf(dir_.path()); }
    QTemporaryDir dir_;
};

}  // namespace testsupport
