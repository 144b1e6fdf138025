"""Wound levels, thresholds, the wound track and stun (wounds-and-healing.md §1, §6, §8, §12)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.core.wounds import (
    DOUBLED_RD,
    MINMIDMAX_EPIC,
    STANDARD,
    TRACK_KINDS,
    Wound,
    WoundTrackError,
    custom_track,
    head_blow_knocks_out,
    landing,
    new_track,
    pc_death_cap,
    penalty_with_pain_threshold,
    point_spend_saves,
    pull_punch,
    rebuild,
    record,
    record_stun,
    stun_effect,
    wound_for_damage,
)
from fadad_agents.rules.personal.dc_track import dc_heal, dc_record, new_dc_track

W = Wound


def _record_all(track, wounds, **kw):
    for w in wounds:
        track = record(track, w, **kw)
    return track


def test_labels():
    """Display names follow §1."""
    assert [w.label for w in W] == [
        "Undamaged",
        "Scratch",
        "Hurt",
        "Very Hurt",
        "Incapacitated",
        "Near Death",
        "Dead",
    ]


@pytest.mark.parametrize(
    ("damage", "wound"),
    [(-3, W.UNDAMAGED), (0, W.UNDAMAGED), (1, W.SCRATCH), (2, W.SCRATCH), (3, W.HURT),
     (4, W.HURT), (5, W.VERY_HURT), (6, W.VERY_HURT), (7, W.INCAPACITATED),
     (8, W.INCAPACITATED), (9, W.NEAR_DEATH), (15, W.NEAR_DEATH)],
)  # fmt: skip
def test_standard_thresholds(damage, wound):
    """§6.1: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death."""
    assert wound_for_damage(damage) == wound
    assert wound_for_damage(damage, STANDARD) == wound


def test_doubled_rd_and_epic_thresholds():
    """A-21 doubled-RD track 1-3/4-6/7-9/10-12/13+; A-28 epic 1-2/3-4/5/6/7+."""
    assert [wound_for_damage(d, DOUBLED_RD) for d in (3, 4, 9, 10, 12, 13)] == [
        W.SCRATCH, W.HURT, W.VERY_HURT, W.INCAPACITATED, W.INCAPACITATED, W.NEAR_DEATH
    ]  # fmt: skip
    assert [wound_for_damage(d, MINMIDMAX_EPIC) for d in (2, 4, 5, 6, 7)] == [
        W.SCRATCH, W.HURT, W.VERY_HURT, W.INCAPACITATED, W.NEAR_DEATH
    ]  # fmt: skip


def test_track_kinds_boxes():
    """§6.2 boxes: standard 3/1/1/1/1, cinematic 4/2/1/1/1, epic 4/3/2/1/1 (A-25)."""
    assert new_track("standard").boxes == (3, 1, 1, 1, 1)
    assert new_track("moderately_cinematic").boxes == (4, 2, 1, 1, 1)
    assert new_track("epic").boxes == (4, 3, 2, 1, 1)
    assert new_track().level == W.UNDAMAGED
    assert new_track().penalty == 0
    with pytest.raises(WoundTrackError, match="allowed"):
        new_track("heroic")
    with pytest.raises(WoundTrackError):
        custom_track((1, 1, 1))


def test_ex_wnd_08_recording_and_overflow():
    """EX-WND-08: VH, H, H on a standard track -> Incapacitated; heals as H, H, VH."""
    t = record(new_track(), W.VERY_HURT)
    assert (t.level, t.penalty) == (W.VERY_HURT, -2)
    t = record(t, W.HURT)
    assert (t.level, t.penalty) == (W.VERY_HURT, -2)  # penalties are not cumulative
    t = record(t, W.HURT)
    assert t.level == W.INCAPACITATED
    assert t.out_of_fight
    assert t.marks == ((3, 3), (2, 2), (4, 2))  # the "H" in the Incapacitated box
    assert sorted(t.severities) == [2, 2, 3]
    two_vh = _record_all(new_track(), [W.VERY_HURT, W.VERY_HURT])
    assert two_vh.level == W.INCAPACITATED


def test_ex_wnd_09_scratch_accumulation_and_cap():
    """EX-WND-09: the 4th Scratch is Hurt; with the Scratch cap never beyond Very Hurt."""
    t = _record_all(new_track(), [W.SCRATCH] * 3)
    assert t.level == W.SCRATCH
    assert t.penalty == 0
    assert record(t, W.SCRATCH).level == W.HURT
    capped = _record_all(new_track(), [W.SCRATCH] * 50, scratch_cap=True)
    assert capped.level == W.VERY_HURT
    assert _record_all(new_track(), [W.SCRATCH] * 50).level == W.DEAD


def test_ex_wnd_05_dragon_scratches():
    """EX-WND-05: a major NPC with 3 Scratch boxes is Hurt only on the 4th Scratch."""
    t = new_track("standard")
    for _ in range(3):
        t = record(t, W.SCRATCH)
        assert t.level == W.SCRATCH
    assert record(t, W.SCRATCH).level == W.HURT


def test_overflow_past_near_death_option():
    """A-24: overflow past Near Death kills ('dead') or is absorbed ('stay_near_death')."""
    full = _record_all(new_track(), [W.NEAR_DEATH])
    assert record(full, W.NEAR_DEATH).level == W.DEAD
    stay = record(full, W.NEAR_DEATH, overflow_past_near_death="stay_near_death")
    assert stay == full
    assert stay.level == W.NEAR_DEATH
    assert record(new_track(), W.DEAD).level == W.DEAD  # a killing blow (automatic death)


def test_npc3_track():
    """Cannon fodder: Undamaged / Hurt / Out; a second Hurt takes them out."""
    t = new_track("npc3")
    assert record(t, W.SCRATCH) == t
    t = record(t, W.VERY_HURT)
    assert (t.level, t.penalty, t.out_of_fight) == (W.HURT, -1, False)
    t = record(t, W.HURT)
    assert t.level == W.INCAPACITATED
    assert t.out_of_fight
    assert record(new_track("npc3"), W.NEAR_DEATH).level == W.INCAPACITATED


def test_ex_wnd_15_pulled_punch():
    """EX-WND-15: a fencer pulling to Scratch does a Scratch even at RD +8 with a +3 sword."""
    damage = 8 + 3
    assert pull_punch(wound_for_damage(damage), W.SCRATCH) == W.SCRATCH
    t = record(new_track(), W.NEAR_DEATH, max_level=W.SCRATCH)
    assert t.level == W.SCRATCH
    assert t.marks == ((1, 5),)


def test_ex_wnd_16_stun_accumulation():
    """EX-WND-16: Hurt-level stun = Stun (1 round), a later second one = Very Stunned (2)."""
    s = record_stun(new_track(), W.HURT)
    e = stun_effect(s.level)
    assert (e.name, e.rounds, e.can_attack, e.defence_penalty) == ("Stun", 1, False, -1)
    s = record_stun(s, W.HURT)  # three rounds later: still recorded, overflows
    e = stun_effect(s.level)
    assert (e.name, e.rounds, e.can_attack, e.action_penalty) == ("Very Stunned", 2, False, -2)
    ko = stun_effect(record_stun(new_track(), W.INCAPACITATED).level)
    assert ko.name == "Knockout"
    assert ko.unconscious
    assert ko.rounds is None
    assert record_stun(new_track(), W.SCRATCH).level == W.UNDAMAGED  # no effect
    assert stun_effect(W.SCRATCH).name == "none"
    assert record_stun(new_track(), W.SCRATCH, scratches_accumulate=True).level == W.SCRATCH
    # stun overflow never kills
    ko_track = record_stun(record_stun(new_track(), W.NEAR_DEATH), W.NEAR_DEATH)
    assert ko_track.level == W.NEAR_DEATH


def test_ex_wnd_17_pc_death_max_three_levels():
    """EX-WND-17: Undamaged PC takes 9 -> Very Hurt; a Hurt PC takes 12 -> Near Death."""
    t = new_track()
    cap = pc_death_cap(t, max_three_levels=True)
    assert record(t, wound_for_damage(9), max_level=cap).level == W.VERY_HURT
    hurt = record(new_track(), W.HURT)
    cap = pc_death_cap(hurt, max_three_levels=True)
    assert cap == W.NEAR_DEATH
    assert record(hurt, wound_for_damage(12), max_level=cap).level == W.NEAR_DEATH


def test_pc_death_no_near_death_unless_incap():
    """Option 2: Near Death only for a PC Incapacitated at the start of the round."""
    t = new_track()
    cap = pc_death_cap(t, no_near_death_unless_incap=True)
    assert record(t, W.NEAR_DEATH, max_level=cap).level == W.INCAPACITATED
    incap = record(t, W.INCAPACITATED)
    cap = pc_death_cap(incap, no_near_death_unless_incap=True, incap_at_round_start=True)
    assert record(incap, W.NEAR_DEATH, max_level=cap).level == W.NEAR_DEATH
    cap = pc_death_cap(incap, no_near_death_unless_incap=True)
    assert record(incap, W.NEAR_DEATH, max_level=cap) == incap  # absorbed


def test_point_spend_turns_deadly_into_incapacitated():
    """FADAD 4.5.9 / A-29: an Ite or Fudge point turns a deadly wound into Incapacitated."""
    t = new_track()
    assert point_spend_saves(t, W.NEAR_DEATH)
    assert not point_spend_saves(t, W.VERY_HURT)
    saved = record(t, W.NEAR_DEATH, max_level=W.INCAPACITATED)
    assert saved.level == W.INCAPACITATED
    assert saved.severities == (5,)


def test_rebuild_replays_severities():
    """Healing rebuilds a track from remaining true severities."""
    t = _record_all(new_track(), [W.VERY_HURT, W.HURT, W.HURT])
    assert rebuild(t, (2,)).level == W.HURT
    assert rebuild(t, ()).level == W.UNDAMAGED


_wounds = st.integers(min_value=0, max_value=6)
_kinds = st.sampled_from(TRACK_KINDS)
_overflow = st.sampled_from(["dead", "stay_near_death"])


@given(_kinds, st.lists(_wounds, max_size=20), _wounds, st.booleans(), _overflow)
def test_property_level_never_decreases(kind, history, wound, cap, overflow):
    """A wound never heals by being hit: the level never decreases after record."""
    t = _record_all(new_track(kind), history, scratch_cap=cap, overflow_past_near_death=overflow)
    after = record(t, wound, scratch_cap=cap, overflow_past_near_death=overflow)
    assert after.level >= t.level
    assert all(f <= b for f, b in zip(after.filled, after.boxes, strict=True))


@given(st.lists(_wounds, max_size=20), st.integers(min_value=1, max_value=5), _overflow)
def test_property_overflow_next_open_box(history, wound, overflow):
    """Overflow lands in the lowest open box at or above the wound, or takes the fighter out."""
    t = _record_all(new_track("standard"), history, overflow_past_near_death=overflow)
    after = record(t, wound, overflow_past_near_death=overflow)
    if t.dead:
        assert after == t
        return
    open_levels = [lvl for lvl in range(wound, 6) if t.open_boxes(lvl) > 0]
    if open_levels:
        lvl = open_levels[0]
        assert after.marks == (*t.marks, (lvl, wound))
        assert landing(t, wound) == lvl
    elif overflow == "dead":
        assert after.level == W.DEAD
    else:
        assert after == t
        assert t.level == W.NEAR_DEATH


def test_point_spent_cap_and_automatic_death():
    """A point spent caps the blow at Incapacitated; automatic death is never capped."""
    t = new_track()
    cap = pc_death_cap(t, point_spent=True)
    assert record(t, W.DEAD, max_level=cap).level == W.INCAPACITATED
    assert record(t, W.DEAD).level == W.DEAD


def test_pain_thresholds():
    """High Pain Threshold lowers penalties a level, Low raises them (SEED 001 4.51)."""
    assert [penalty_with_pain_threshold(lvl, 1) for lvl in (1, 2, 3)] == [0, 0, -1]
    assert [penalty_with_pain_threshold(lvl, -1) for lvl in (1, 2, 3)] == [0, -2, -3]
    assert penalty_with_pain_threshold(W.VERY_HURT) == -2


def test_dc_attribute_track():
    """§6.4 option: DC drops a level per hit; Mediocre Hurt, Poor Very Hurt, Terrible -3."""
    t = new_dc_track(1)
    t = dc_record(t, W.SCRATCH)
    assert (t.current, t.level, t.penalty) == (1, W.SCRATCH, 0)
    t = dc_record(dc_record(t, W.SCRATCH), W.SCRATCH)  # three Scratches = one hit
    assert (t.current, t.scratches) == (0, 0)
    levels = []
    for _ in range(5):
        t = dc_record(t, W.HURT)
        levels.append((t.current, t.level, t.penalty))
    assert levels == [
        (-1, W.HURT, -1), (-2, W.VERY_HURT, -2), (-3, W.VERY_HURT, -3),
        (-4, W.INCAPACITATED, -3), (-5, W.NEAR_DEATH, -3),
    ]  # fmt: skip
    assert t.out_of_fight
    assert dc_heal(t, 20).current == 1  # never above the undamaged DC


def test_dc_track_low_dc_unaffected_until_hit():
    """A Mediocre-DC character has no penalty until hit, then drops to Poor (-2)."""
    t = new_dc_track(-1)
    assert (t.penalty, t.level) == (0, W.UNDAMAGED)
    t = dc_record(t, W.HURT)
    assert (t.current, t.penalty) == (-2, -2)
    assert dc_record(new_dc_track(0), W.VERY_HURT, by_severity=True).current == -2
    assert new_dc_track(0, terrible_incapacitates=True).level == W.UNDAMAGED
    assert dc_record(new_dc_track(-2, terrible_incapacitates=True), W.HURT).out_of_fight
    assert dc_record(new_dc_track(2), W.DEAD).level == W.DEAD


def test_head_blow_knockout_option():
    """A Good-or-better head blow that wins knocks out (GM option, SEED 001 4.62)."""
    assert head_blow_knocks_out(1, 1)
    assert not head_blow_knocks_out(0, 3)
    assert not head_blow_knocks_out(2, 0)


def test_track_level_penalty_and_out_of_fight_agree_on_every_box_state():
    """The unrolled level, penalty and out_of_fight read every marked-box state alike."""
    from itertools import product

    from fadad_agents.rules.core.wounds import WoundTrack

    penalties = (0, 0, -1, -2, -2, -2, -2)
    for *filled, dead in product((0, 1, 2), (0, 1), (0, 1), (0, 1), (0, 1), (False, True)):
        track = WoundTrack("standard", (3, 1, 1, 1, 1), tuple(filled), (), dead)  # type: ignore[arg-type]
        marked = [i + 1 for i, n in enumerate(filled) if n]
        level = Wound.DEAD if dead else Wound(max(marked, default=0))
        assert track.level == level
        assert track.penalty == penalties[level]
        assert track.out_of_fight is (level >= Wound.INCAPACITATED)
