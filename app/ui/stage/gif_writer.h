#pragma once
// Writes an animated GIF through giflib (Debian's libgif-dev), frames quantised to one fixed
// 256-colour palette: a 6x7x6 colour cube plus four greys. Fixed, so every frame shares the
// global colour map and quantising is a table look-up. The GIF is built in memory and saved
// atomically by close(), so a failed or abandoned GIF never leaves a partial file.
#include <QBuffer>
#include <QImage>
#include <QSize>
#include <QString>

struct GifFileType;

namespace fusescope {

class GifWriter {
  public:
    GifWriter() = default;
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    static bool available();  // false when built without giflib

    // Each call returns an empty string on success, else what went wrong, in words.
    QString open(const QString& path, const QSize& size);  // loops forever
    QString addFrame(const QImage& frame, int delayCentiseconds);
    QString close();  // finishes the GIF and saves it; a writer destroyed unclosed saves nothing

  private:
    GifFileType* gif_ = nullptr;
    QByteArray bytes_;
    QBuffer buffer_{&bytes_};  // written through giflib's output callback
    QSize size_;
    QString path_;
};

}  // namespace fusescope
