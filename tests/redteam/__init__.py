"""The red team of issue 24: protocol 4 (rosters v3, one host signature per event, orders
signed by seat keys, time held to account, rolls that go on without a page) attacked as a
dishonest host and as a curious opponent, over every ruleset.

Each hole found is a strict xfail with its place in src and a fix in its module's docstring;
each defence that held is a passing test that guards it. The modules:

- ``test_bluff.py`` (with ``worlds.py``, ``watcher.py``): the bluff-versus-move simulation —
  **found** an opening that removes its piece (every reveal of suspicious-places and
  camouflage) does not blind the roster afresh, so later openings share leaves with earlier
  ones and their count tells a covert move from a bluff (100 % of 400 seeds through the
  rules; 98 % / 97.5 % of 200 through the ledger; 50 % in the other rulesets, and in all of
  them once ``Facts.seal`` takes the opened rosters before forgetting removed
  pieces). ``--run-slow`` for the full run.
- ``test_host.py`` (with ``host.py``): a dishonest host at the hub — orders not signed for
  their roll, id or command fail the audit (held); **found** a roll drawn "without" a page
  whose element came, a seat key swapped or left out at the set-up, a seat key changed in
  mid-game while the page followed, rolls drawn without a page in a game that waits for
  ever: each passes the audit; and ``ghillie audit`` names neither missing rolls nor
  host-acted orders.
- ``test_pages.py``: fairplay.js in chromium — **found** a downgrade to protocol 3 after
  joining silences the page, a thrown-away element raises no alarm, a window cut short
  behind a reconnect, an answer taken after the window's end, a view taken in late makes an
  honest refusal an alarm, and every refused order throws in the outbox (``fairplay.refused``
  is a Set), so the page keeps it for good. All six fixed since (fairplay.js, panels.js,
  live.py's ``now``); the tests guard them.
- ``test_audit.py``: the record rewritten by its host — a time left out or late fails, a
  relabelled protocol fails (held); **found** the time check accuses an honest host for an
  order the rules refused.
- ``test_counts.py``: **found** ambush-fire's standing orders counted, one event each.
- ``test_digests.py``: a side holds its own digest salts, never another's (held).
- ``timing_more.py``: a script (no timing in tests) timing suspicious-places' observations
  and ambush-fields' end of movement in worlds that differ in secrets only.
"""
