"""The paired phones' file (connect4.net.pairing's FILE): the tokens' SHA-256 digests, 32
bytes each, oldest first, written atomically (connect4.app.store.replace).

Read at the first check of a token, written at a pairing and a forget: rare, so
pairing loads this module for each of them and drops it again (connect4.modules.forget),
and its code does not stay on the heap while Wi-Fi is on.
"""
from connect4.app.store import Files, settle, set_aside, say, why, replace, refused

DIGEST = 32  # bytes of a SHA-256


def load(path, most):
    """The digests in `path`; [] for none, and for a corrupt file (a length that is not a
    whole number of digests, or over `most` of them: said, kept aside as .bad)."""
    fs = Files()
    settle(fs, path, path + ".tmp")
    try:
        f = fs.open(path, "rb")
    except OSError:
        return []  # never paired
    try:
        try:
            data = f.read()
        finally:
            f.close()
    except OSError as e:  # a folder in the way (opened by some filesystems), a flash error
        say("paired phones: cannot read %s (%s): no phone is paired now" % (path, why(e)))
        return []
    n = len(data)
    if n % DIGEST or n > most * DIGEST:
        say("paired phones: %s is corrupt, kept as %s.bad: no phone is paired now" % (path, path))
        set_aside(fs, path)
        return []
    return [data[i:i + DIGEST] for i in range(0, n, DIGEST)]


def save(holder):
    """holder.digests to holder.path; False (said once: holder.save_error) if refused."""
    err = replace(Files(), holder.path, holder.path + ".tmp", b"".join(holder.digests))
    return True if err is None else refused(holder, "paired phones", err)
