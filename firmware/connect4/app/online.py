"""The app's Wi-Fi switch: the menu's item, and the saved switch at start.

Loaded for each use and dropped again (connect4.modules.use). The network's
code itself comes from the factory the app was handed (connect4.boot's
wifi_link): Wi-Fi is off by default, and the app imports nothing of
connect4.net.
"""


def switch(app, now, on):
    """Wi-Fi on (or, if on, the address again) or off; the app's start turns it on this way
    too when the settings say it was on. The menu saves the switch as it ends up (a Wi-Fi that
    did not come on: off); a failure at start keeps the setting (tried again at the next
    start)."""
    if on:
        got = link(app, now)
        if got is None:
            return
        got.on(now)
    elif app.link is not None:
        app.link.off()
    app._wifi_is(on and app.link is not None and app.link.error is None)


def link(app, now):
    """The Wi-Fi link (the menu's Wi-Fi and "forget paired phones"), made at first need by
    the factory; None without one, or when it does not fit the heap (said)."""
    if app.link is None and app.wifi_factory is not None:
        try:
            app.link = app.wifi_factory(app, app.cfg)
        except MemoryError:  # the network code does not fit now: said, the game goes on
            app.short_of_memory(now)
    return app.link
