// Feeds arbitrary bytes to the recording loader. Besides the sanitizers' findings, a recording
// that loads must save and load again: the GUI and the CLI save what they opened.
#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "model/recording_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const fusescope::Result<fusescope::model::Recording> loaded =
        fusescope::model::recordingFromJson(bytes, QStringLiteral("fuzz input"));
    if (!loaded) return 0;

    const fusescope::Result<QByteArray> saved = fusescope::model::recordingToJsonBytes(*loaded);
    if (!saved) {
        std::fprintf(stderr, "a loaded recording cannot be saved: %s\n",
                     saved.status().message().c_str());
        std::abort();
    }
    const fusescope::Result<fusescope::model::Recording> reloaded =
        fusescope::model::recordingFromJson(*saved, QStringLiteral("saved fuzz input"));
    if (!reloaded) {
        std::fprintf(stderr, "a saved recording does not load again: %s\n",
                     reloaded.status().message().c_str());
        std::abort();
    }
    if (reloaded->runs.size() != loaded->runs.size()) {
        std::fprintf(stderr, "saving and loading changed the number of runs\n");
        std::abort();
    }
    return 0;
}
