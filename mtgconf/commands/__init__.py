"""The subcommands of ``mtgconf``, one module each; each ``register``s its parser and handler
(``mtgconf.build_parser`` calls them in the order ``mtgconf --help`` lists them)."""
