"""The testing layer: assertions, canned context states, tenant isolation checks, ranking
explanations, the pytest plugin and the routing of its marker options."""
