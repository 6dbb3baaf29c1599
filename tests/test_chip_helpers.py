"""tests/chip/helpers.py on the host, without the emulator: a try that fails on the emulator's
fault boots again only after its own emulators have ended (issue 40: three tries' emulators
ran at once on a two-core host and starved each other)."""
import pytest

from chip import helpers
from tools.chip.emulator import ChipDied, ChipStalled


class FakeChip:
    running = []  # every fake emulator not yet closed

    def __init__(self, qemu, flash, wifi=True, log=None, **kwargs):
        self.flash = flash
        FakeChip.running.append(self)

    def close(self):
        FakeChip.running.remove(self)


@pytest.fixture
def boards(tmp_path, monkeypatch):
    monkeypatch.setattr(helpers, "Chip", FakeChip)
    monkeypatch.setattr(helpers, "find_qemu", lambda: "qemu")
    monkeypatch.setattr(helpers.probe, "flash", lambda firmware, deployed, probe_mpy, extra: b"flash")
    FakeChip.running = []
    made = helpers.Boards(tmp_path, str(tmp_path), "test_x", b"", [], b"")
    yield made
    made.close()


def test_a_failed_trys_emulators_end_before_the_next_try_boots(boards):
    seen = []

    @helpers.retry_stalls
    def test(chip):
        seen.append(len(FakeChip.running))  # emulators still running as this try begins
        chip(), chip(wifi=False)
        if len(seen) == 1:
            raise ChipStalled("stalled")
        if len(seen) == 2:
            raise ChipDied("ended")
        return "passed"

    assert test(chip=boards) == "passed"
    assert seen == [0, 0, 0]
    assert len(FakeChip.running) == 2  # the last try's: the fixture ends them at the test's end
    assert [c.flash.rsplit("flash", 1)[1] for c in FakeChip.running] == ["4.bin", "5.bin"]  # numbered on
    boards.close()
    assert FakeChip.running == []


def test_the_third_failure_fails_the_test(boards):
    @helpers.retry_stalls
    def test(chip):
        chip()
        raise ChipDied("the emulator ended")

    with pytest.raises(ChipDied):
        test(boards)
    assert len(FakeChip.running) == 1  # the last try's, for the fixture to end
