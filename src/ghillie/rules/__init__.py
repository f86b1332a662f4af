"""The rulesets, one package each; ``ghillie.registry`` lists them."""
