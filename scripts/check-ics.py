#!/usr/bin/env python3
"""Reads an iCalendar file from stdin with a real parser (icalendar from PyPI) and checks it.

Usage: momentum export --format ics | python3 scripts/check-ics.py EXPECTED_EVENTS
"""
import sys

import icalendar

expected = int(sys.argv[1])
data = sys.stdin.buffer.read()
calendar = icalendar.Calendar.from_ical(data)
events = calendar.walk("VEVENT")
assert len(events) == expected, f"{len(events)} events, expected {expected}"
uids = set()
for event in events:
    for field in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"):
        assert field in event, f"event without {field}: {event}"
    start, end = event.decoded("DTSTART"), event.decoded("DTEND")
    assert start.tzinfo is not None and end > start, (start, end)
    uids.add(str(event["UID"]))
assert len(uids) == len(events), "UIDs are not unique"
# Round trip: what the parser writes back parses to the same events.
again = icalendar.Calendar.from_ical(calendar.to_ical())
assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(e["UID"]) for e in events]
assert [e.decoded("DTSTART") for e in again.walk("VEVENT")] == [e.decoded("DTSTART") for e in events]
print(f"ics ok: {len(events)} events")
