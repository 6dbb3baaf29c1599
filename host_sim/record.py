"""Pictures of the matrix: an animated GIF, or PNG frames, drawn with Pillow.

Each LED is a round disc on a dark board; its colour is the LED's PWM duty
turned back into screen brightness (the inverse of the firmware's gamma), so
a dim LED looks dim.
"""
OFF = (34, 34, 38)
BOARD = (12, 12, 16)


def screen_color(rgb):
    """What an LED driven at `rgb` duty looks like on a screen (None if off)."""
    if not any(rgb):
        return None
    return tuple(int(round(255 * (v / 255) ** (1 / 2.2))) for v in rgb)


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
            color = screen_color(pixels[x + y * width]) or OFF
            g.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
    return img


class Recorder:
    """Collects frames with their times (ms); `save(path)` writes GIF or PNG."""

    def __init__(self, width, height, max_frames=3000, cell=32):
        self.width = width
        self.height = height
        self.max_frames = max_frames
        self.cell = cell
        self.frames = []  # (t_ms, pixels)

    def add(self, t_ms, pixels):
        if self.frames and self.frames[-1][1] == pixels:
            return
        if len(self.frames) >= self.max_frames:
            return
        self.frames.append((t_ms, tuple(pixels)))

    def save(self, path, end_ms=None):
        if not self.frames:
            raise ValueError("nothing to record: no frame was shown")
        lower = path.lower()
        if "%" in path:  # PNG frames: frame%04d.png
            for i, (_, pixels) in enumerate(self.frames):
                draw(pixels, self.width, self.height, self.cell).save(path % i)
            return len(self.frames)
        if lower.endswith(".png"):
            draw(self.frames[-1][1], self.width, self.height, self.cell).save(path)
            return 1
        kept = []  # GIF players show a frame for 20 ms at least: merge faster ones
        for t, pixels in self.frames:
            if kept and t - kept[-1][0] < 20:
                kept[-1] = (kept[-1][0], pixels)
            else:
                kept.append((t, pixels))
        last = end_ms if end_ms is not None else kept[-1][0] + 1000
        images = []
        durations = []
        for i, (t, pixels) in enumerate(kept):
            t_next = kept[i + 1][0] if i + 1 < len(kept) else max(last, t + 20)
            images.append(draw(pixels, self.width, self.height, self.cell))
            durations.append(int(round((t_next - t) / 10.0)) * 10 or 20)
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations,
                       loop=0, optimize=True, disposal=1)
        return len(images)
