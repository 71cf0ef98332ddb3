"""The table as an appliance: update bundles and the updater (:mod:`kiosk.appliance.update`), read-only mode
(:mod:`kiosk.appliance.readonly`) and the requests the unprivileged kiosk hands to the root helper
(:mod:`kiosk.appliance.requests`). None of this imports Kivy.
"""
