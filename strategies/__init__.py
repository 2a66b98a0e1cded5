"""The built-in strategies of ginsim, one module each. See ``ginsim.engine.registry``."""
