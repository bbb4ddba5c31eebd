#include "ui/stage/gif_writer.h"

#include "model/atomic_save.h"
#include "ui/export/export_save.h"

#include <array>
#include <vector>

#ifdef FUSESCOPE_HAVE_GIFLIB
#include <gif_lib.h>
#endif

namespace fusescope {

#ifdef FUSESCOPE_HAVE_GIFLIB
namespace {

constexpr int kRedLevels = 6;
constexpr int kGreenLevels = 7;
constexpr int kBlueLevels = 6;
constexpr int kCubeSize = kRedLevels * kGreenLevels * kBlueLevels;  // 252
constexpr std::array<int, 4> kGreys = {36, 92, 164, 220};

int level(int value, int levels) {
    return (value * (levels - 1) + 127) / 255;
}
int levelValue(int index, int levels) {
    return index * 255 / (levels - 1);
}

std::array<GifColorType, 256> fixedPalette() {
    std::array<GifColorType, 256> palette{};
    for (int r = 0; r < kRedLevels; ++r)
        for (int g = 0; g < kGreenLevels; ++g)
            for (int b = 0; b < kBlueLevels; ++b) {
                GifColorType& color = palette[(r * kGreenLevels + g) * kBlueLevels + b];
                color.Red = static_cast<GifByteType>(levelValue(r, kRedLevels));
                color.Green = static_cast<GifByteType>(levelValue(g, kGreenLevels));
                color.Blue = static_cast<GifByteType>(levelValue(b, kBlueLevels));
            }
    for (std::size_t i = 0; i < kGreys.size(); ++i) {
        GifColorType& grey = palette[kCubeSize + i];
        grey.Red = grey.Green = grey.Blue = static_cast<GifByteType>(kGreys[i]);
    }
    return palette;
}

GifByteType quantise(QRgb pixel) {
    const int r = qRed(pixel), g = qGreen(pixel), b = qBlue(pixel);
    const int cube = (level(r, kRedLevels) * kGreenLevels + level(g, kGreenLevels)) * kBlueLevels +
                     level(b, kBlueLevels);
    // Near-grey pixels (text antialiasing, panels) look better on the grey ramp when it is closer.
    if (std::abs(r - g) < 10 && std::abs(g - b) < 10) {
        const int grey = (r + g + b) / 3;
        const int cubeGrey = levelValue(level(grey, kRedLevels), kRedLevels);
        int best = -1, bestDistance = std::abs(grey - cubeGrey);
        for (std::size_t i = 0; i < kGreys.size(); ++i)
            if (std::abs(grey - kGreys[i]) < bestDistance)
                best = static_cast<int>(i), bestDistance = std::abs(grey - kGreys[i]);
        if (best >= 0) return static_cast<GifByteType>(kCubeSize + best);
    }
    return static_cast<GifByteType>(cube);
}

QString gifError(const char* what, int code) {
    const char* message = GifErrorString(code);
    return QStringLiteral("%1: %2").arg(
        QLatin1String(what),
        message ? QString::fromUtf8(message) : QStringLiteral("giflib error %1").arg(code));
}

int writeToBuffer(GifFileType* gif, const GifByteType* bytes, int length) {
    auto* buffer = static_cast<QBuffer*>(gif->UserData);
    return static_cast<int>(buffer->write(reinterpret_cast<const char*>(bytes), length));
}

}  // namespace

bool GifWriter::available() {
    return true;
}

GifWriter::~GifWriter() {
    if (gif_) EGifCloseFile(gif_, nullptr);
}

QString GifWriter::open(const QString& path, const QSize& size) {
    if (gif_) return QStringLiteral("a GIF is already open");
    if (size.isEmpty()) return QStringLiteral("the GIF size is empty");
    // Refused before any frame is drawn, not after the whole animation was rendered.
    if (const QString problem = model::saveTargetProblem(path); !problem.isEmpty())
        return QStringLiteral("cannot write %1: %2").arg(path, problem);
    bytes_.clear();
    if (!buffer_.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot start %1 in memory").arg(path);
    int error = 0;
    gif_ = EGifOpen(&buffer_, writeToBuffer, &error);
    if (!gif_) {
        buffer_.close();
        return gifError(qPrintable(QStringLiteral("cannot start %1").arg(path)), error);
    }
    path_ = path;
    size_ = size;
    EGifSetGifVersion(gif_, true);  // GIF89a: delays and looping

    const std::array<GifColorType, 256> palette = fixedPalette();
    ColorMapObject* map = GifMakeMapObject(256, palette.data());
    if (!map) return QStringLiteral("giflib could not make the colour map");
    const int written = EGifPutScreenDesc(gif_, size.width(), size.height(), 8, 0, map);
    GifFreeMapObject(map);
    if (written != GIF_OK) return gifError("cannot write the GIF header", gif_->Error);

    // NETSCAPE2.0 application extension: loop forever.
    static const GifByteType netscape[] = "NETSCAPE2.0";
    static const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(gif_, 11, netscape) != GIF_OK ||
        EGifPutExtensionBlock(gif_, 3, loop) != GIF_OK || EGifPutExtensionTrailer(gif_) != GIF_OK)
        return gifError("cannot write the loop extension", gif_->Error);
    return {};
}

QString GifWriter::addFrame(const QImage& frame, int delayCentiseconds) {
    if (!gif_) return QStringLiteral("no GIF is open");
    const QImage image = frame.size() == size_
                             ? frame.convertToFormat(QImage::Format_RGB32)
                             : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                                   .convertToFormat(QImage::Format_RGB32);
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = std::max(2, delayCentiseconds);
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) !=
        GIF_OK)
        return gifError("cannot write a frame delay", gif_->Error);
    if (EGifPutImageDesc(gif_, 0, 0, size_.width(), size_.height(), false, nullptr) != GIF_OK)
        return gifError("cannot write a frame header", gif_->Error);
    std::vector<GifByteType> line(static_cast<std::size_t>(size_.width()));
    for (int y = 0; y < size_.height(); ++y) {
        const auto* pixels = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < size_.width(); ++x)
            line[static_cast<std::size_t>(x)] = quantise(pixels[x]);
        if (EGifPutLine(gif_, line.data(), size_.width()) != GIF_OK)
            return gifError("cannot write frame pixels", gif_->Error);
    }
    return {};
}

QString GifWriter::close() {
    if (!gif_) return {};
    int error = 0;
    const int result = EGifCloseFile(gif_, &error);
    gif_ = nullptr;
    buffer_.close();
    if (result != GIF_OK)
        return gifError(qPrintable(QStringLiteral("cannot finish %1").arg(path_)), error);
    return saveExportBytes(bytes_, path_);
}

#else  // built without giflib

bool GifWriter::available() {
    return false;
}
GifWriter::~GifWriter() = default;
QString GifWriter::open(const QString&, const QSize&) {
    return QStringLiteral("GIF export needs giflib: FuseScope was built without libgif-dev");
}
QString GifWriter::addFrame(const QImage&, int) {
    return QStringLiteral("no GIF is open");
}
QString GifWriter::close() {
    return {};
}

#endif

}  // namespace fusescope
