"""bgledger: an event-sourced match record and audit ledger for tournament backgammon."""
