"""The aggregate's decisions, by feature: each command checks, then records."""
