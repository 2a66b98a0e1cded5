"""Text front-ends: the hand checker, playing against a bot, replaying a logged hand,
and the text rendering they share."""
