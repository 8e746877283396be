"""The read side: pure folds from events to state."""
