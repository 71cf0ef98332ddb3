"""The kiosk's one configuration file, ``kiosk.json``: every key optional (an empty ``{}`` is a valid file), an
unknown key, a wrong type or an out-of-range value reported with one message per problem, naming the key and what
is allowed. Three concerns, three modules, their public names gathered here:

* :mod:`kiosk.config.values`: the settings' values and their schema (one frozen dataclass per section, the
  defaults, :class:`Config`, the JSON form);
* :mod:`kiosk.config.validate`: a parsed file to a :class:`Config` (:func:`load_dict`, one function per section);
* :mod:`kiosk.config.file`: the file, read strictly (:func:`load`: ``kiosk --check-config`` and tests) or never
  failing (:func:`load_safely`, what the kiosk starts with), written atomically with its last good copy.

The operator PIN's hashing is beside its guard, in :mod:`kiosk.pin`. Rationale: docs/developer/design.md.
"""

from kiosk.config.file import (
    MAX_BYTES,
    MAX_DEPTH,
    LoadedConfig,
    default_config_path,
    default_state_dir,
    last_good_path,
    load,
    load_safely,
    save,
    table_state_dir,
)
from kiosk.config.validate import load_dict
from kiosk.config.values import (
    BOT_LEVELS,
    HANDS,
    POSITIONS,
    AttractConfig,
    BotsConfig,
    Config,
    ConfigError,
    EventConfig,
    LanguageConfig,
    OperatorConfig,
    SeatsConfig,
    SerialConfig,
    SoundConfig,
    TimeoutsConfig,
    WindowConfig,
    to_dict,
)

__all__ = [
    "ConfigError",
    "Config",
    "SeatsConfig",
    "SerialConfig",
    "OperatorConfig",
    "TimeoutsConfig",
    "SoundConfig",
    "AttractConfig",
    "BotsConfig",
    "WindowConfig",
    "EventConfig",
    "LanguageConfig",
    "POSITIONS",
    "BOT_LEVELS",
    "HANDS",
    "LoadedConfig",
    "load",
    "load_safely",
    "load_dict",
    "save",
    "to_dict",
    "last_good_path",
    "default_state_dir",
    "table_state_dir",
    "default_config_path",
    "MAX_BYTES",
    "MAX_DEPTH",
]
