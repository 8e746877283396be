"""The bgledger command line: a thin shell over the ledger."""
