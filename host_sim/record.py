"""Pictures of the matrix: an animated GIF, or PNG frames, drawn with Pillow.

Each LED is a round disc on a dark board, in its screen colour
(`screen_color`: the display curve shared with the terminal); an unlit LED
is a dark hole, darker than any lit LED.

The output path is checked when the Recorder is made (before a session
starts), and a GIF is written frame by frame as the run goes (a temporary
file next to it, renamed at the end), so a long recording keeps every frame
without holding them all in memory.
"""
import math
import os
import tempfile

HOLE = (26, 26, 30)  # an unlit LED: a hole in the board
OFF = HOLE  # (old name)
BOARD = (12, 12, 16)
LIT_MIN = 96  # the darkest lit channel on screen (duty 1): far above the hole
CELL = 32  # a recording's pixels per LED
GIF_MIN_MS = 20  # GIF players show a frame for 20 ms at least: faster frames are merged


def channel(duty):
    """Screen level of one LED channel driven at `duty` (0-255): 0 stays 0.

    A display curve, not the inverse of the firmware's gamma: a screen cannot
    show how an LED at 2% duty still glows, so the duties are spread on a log
    scale over LIT_MIN..255 (duty 1 -> 96, the default brightness's full
    colour, duty 48 -> 213, 255 -> 255). The blue frame (duty 3) is a clear
    blue, yellow (48, 19, 0) a yellow, and a dimmed disc stays darker than a
    lit one (the curve is monotonic).
    """
    if duty <= 0:
        return 0
    return int(round(LIT_MIN + (255 - LIT_MIN) * math.log(min(duty, 255)) / math.log(255)))


def screen_color(rgb):
    """What an LED driven at `rgb` duty looks like on a screen (None if off)."""
    if not any(rgb):
        return None
    return (channel(rgb[0]), channel(rgb[1]), channel(rgb[2]))


def draw(pixels, width, height, cell=24):
    from PIL import Image, ImageDraw
    pad = cell // 8
    img = Image.new("RGB", (width * cell + 2 * pad, height * cell + 2 * pad), BOARD)
    g = ImageDraw.Draw(img)
    r = cell // 2 - max(1, cell // 10)
    for y in range(height):
        for x in range(width):
            cx = pad + x * cell + cell // 2
            cy = pad + y * cell + cell // 2
            color = screen_color(pixels[x + y * width]) or HOLE
            g.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
    return img


def read_leds(image, width, height, cell=CELL):
    """The screen colour of each LED of a picture `draw` made (row by row): its centre's."""
    rgb = image.convert("RGB")
    pad = cell // 8
    return [rgb.getpixel((pad + x * cell + cell // 2, pad + y * cell + cell // 2))
            for y in range(height) for x in range(width)]


class RecordError(ValueError):
    """A recording that cannot be made (bad path, nothing shown)."""


def record_kind(path):
    """'gif', 'png' (the last frame) or 'frames' (a %d pattern of PNGs); RecordError if neither.

    Also checks that the folder exists and is writable, so a bad path fails at start.
    """
    if not path or path.endswith(os.sep):
        raise RecordError("--record %r: give a file name ending in .gif or .png" % path)
    lower = path.lower()
    if "%" in path:
        try:
            path = path % ()  # only '%%': a plain name with a '%' in it
            lower = path.lower()
        except (TypeError, ValueError):
            try:
                first = path % 0
                path % 1
            except (TypeError, ValueError):
                raise RecordError("--record %r: a %% in the name must be one number pattern "
                                  "such as frame%%04d.png (write %%%% for a plain %%)" % path)
            if not lower.endswith(".png"):
                raise RecordError("--record %r: a %% in the name numbers PNG frames (frame%%04d.png);"
                                  " write %%%% for a plain %%" % path)
            _check_folder(path, first)
            return "frames"
    if lower.endswith(".gif"):
        kind = "gif"
    elif lower.endswith(".png"):
        kind = "png"
    else:
        raise RecordError("--record %r: unknown picture type %r: use .gif (animation), .png (last "
                          "frame) or frame%%04d.png (every frame)" % (path, os.path.splitext(path)[1]))
    _check_folder(path, path)
    return kind


def _check_folder(shown, path):
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RecordError("--record %r: folder %s does not exist" % (shown, folder))
    if os.path.isdir(path):
        raise RecordError("--record %r: is a folder, not a file name" % shown)
    if not os.access(folder, os.W_OK):
        raise RecordError("--record %r: folder %s is not writable" % (shown, folder))


class Recorder:
    """Frames with their times (ms) to `path`: GIF (streamed), PNG (last frame) or PNG frames."""

    def __init__(self, path, width, height, cell=CELL):
        self.kind = record_kind(path)
        if self.kind != "frames" and "%" in path:
            path = path % ()  # 'a%%b.gif' -> 'a%b.gif'
        self.path = path
        self.width = width
        self.height = height
        self.cell = cell
        self.count = 0  # frames written (or, for one PNG, frames seen)
        self.last = None  # the last pixels added
        self.pending = None  # GIF: [t_ms, image] not yet written (its duration is not known)
        self.written = None  # GIF: the last image written (frames are stored as differences)
        self.t_written = 0  # GIF: 10 ms units of time written so far
        self.tmp = None
        self.fp = None
        if self.kind == "gif":  # open now: a failure shows at start, not after the session
            try:
                fd, self.tmp = tempfile.mkstemp(prefix=".record-", suffix=".gif.part",
                                                dir=os.path.dirname(os.path.abspath(path)))
            except OSError as e:
                raise RecordError("--record %r: cannot write there: %s" % (path, e.strerror or e))
            self.fp = os.fdopen(fd, "wb")
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.tmp, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600

    def add(self, t_ms, pixels):
        pixels = tuple(pixels)
        if pixels == self.last:
            return
        self.last = pixels
        if self.kind == "png":
            self.count = 1
        elif self.kind == "frames":
            draw(pixels, self.width, self.height, self.cell).save(self.path % self.count)
            self.count += 1
        else:
            image = draw(pixels, self.width, self.height, self.cell)
            if self.pending is None:
                self.pending = [t_ms, image]
            elif t_ms - self.pending[0] < GIF_MIN_MS:
                self.pending[1] = image  # too quick to be seen: the later picture wins
            else:
                self._write(self.pending[1], self.pending[0], t_ms)
                self.pending = [t_ms, image]

    def _write(self, image, t_ms, t_next):
        from PIL import Image, ImageChops, GifImagePlugin
        start = max(self.t_written, int(t_ms / 10.0 + 0.5))
        end = max(start + GIF_MIN_MS // 10, int(t_next / 10.0 + 0.5))
        if self.written is None:
            w, h = image.size
            self.fp.write(b"GIF89a" + _u16(w) + _u16(h) + b"\x70\x00\x00"  # no global colours
                          + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever
            box = (0, 0, w, h)
        else:
            box = ImageChops.difference(self.written, image).getbbox()
            if box is None:  # looks the same (two duties, one screen colour): extend nothing
                box = (0, 0, 1, 1)
        part = image.crop(box).convert("P", palette=Image.Palette.ADAPTIVE, colors=256)
        for chunk in GifImagePlugin.getdata(part, offset=box[:2], include_color_table=True,
                                            duration=(end - start) * 10, disposal=1):
            self.fp.write(chunk)
        self.written = image
        self.t_written = end
        self.count += 1

    def save(self, end_ms=None):
        """Finish the file; returns the number of frames in it."""
        if self.last is None:
            self.discard()
            raise RecordError("nothing to record: no frame was shown")
        if self.kind == "png":
            draw(self.last, self.width, self.height, self.cell).save(self.path)
        elif self.kind == "gif":
            t, image = self.pending
            self._write(image, t, max(end_ms if end_ms is not None else t + 1000, t + GIF_MIN_MS))
            self.pending = None
            self.fp.write(b";")
            self.fp.close()
            self.fp = None
            os.replace(self.tmp, self.path)
            self.tmp = None
        return self.count

    def discard(self):
        if self.fp is not None:
            self.fp.close()
            self.fp = None
        if self.tmp is not None:
            try:
                os.remove(self.tmp)
            except OSError:
                pass
            self.tmp = None


def _u16(v):
    return bytes((v & 255, v >> 8))
