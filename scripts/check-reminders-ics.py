#!/usr/bin/env python3
"""Reads the reminders feed (GET /reminders.ics) from stdin with a real parser (icalendar from
PyPI), checks what a calendar app needs, and round-trips its events.

Usage: curl -s http://127.0.0.1:8080/reminders.ics | python3 scripts/check-reminders-ics.py MIN_EVENTS [TZID]
"""
import sys

import icalendar

minimum = int(sys.argv[1])
zone = sys.argv[2] if len(sys.argv) > 2 else None
data = sys.stdin.buffer.read()
for line in data.split(b"\r\n"):
    assert len(line) <= 75, f"line longer than 75 octets: {line!r}"
calendar = icalendar.Calendar.from_ical(data)
assert str(calendar["VERSION"]) == "2.0" and "PRODID" in calendar, calendar
events = calendar.walk("VEVENT")
assert len(events) >= minimum, f"{len(events)} events, expected at least {minimum}"
zones = [str(z["TZID"]) for z in calendar.walk("VTIMEZONE")]
if zone:
    assert zones == [zone], zones
uids = set()
for event in events:
    for field in ("UID", "DTSTAMP", "DTSTART", "SUMMARY", "DESCRIPTION"):
        assert field in event, f"event without {field}: {event}"
    start = event.decoded("DTSTART")
    assert start.tzinfo is not None, start
    if zone:
        assert event["DTSTART"].params["TZID"] == zone, event["DTSTART"].params
    alarms = event.walk("VALARM")
    assert len(alarms) == 1 and str(alarms[0]["ACTION"]) == "DISPLAY", alarms
    assert alarms[0].decoded("TRIGGER").total_seconds() == 0, alarms[0]["TRIGGER"]
    uids.add(str(event["UID"]))
assert len(uids) == len(events), "UIDs are not unique"
again = icalendar.Calendar.from_ical(calendar.to_ical())
assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(e["UID"]) for e in events]
assert [e.decoded("DTSTART") for e in again.walk("VEVENT")] == [e.decoded("DTSTART") for e in events]
assert [str(e["SUMMARY"]) for e in again.walk("VEVENT")] == [str(e["SUMMARY"]) for e in events]
print(f"reminders feed ok: {len(events)} events, zones {zones}")
