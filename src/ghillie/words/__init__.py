"""The players' words: sentences written once as data, spoken in the reader's language.

A rule writes what a side is told as a :class:`Say` — an English template and its
arguments — and never as finished text; ``speak`` turns it into the reader's language with
the ruleset's message catalogue (Babel), when a view is built for that reader. So the log,
the forms and the status lines of one game can be read in English by one player and in
Russian by the other, and the stored event says the same either way.
"""

from ghillie.words.say import N_, Say, say, says
from ghillie.words.speak import Speaker, speaker

__all__ = ["N_", "Say", "Speaker", "say", "says", "speaker"]
