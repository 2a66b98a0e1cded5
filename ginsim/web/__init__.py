"""ginsim in the browser: the self-contained replay page (``replay_html``) and the local
table of ``ginsim web`` (``ginsim.web.server``, extra ``ginsim[web]``)."""

from ginsim.web.page import replay_html

__all__ = ["replay_html"]
