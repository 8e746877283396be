"""Tournament-wide tables kept current from the notification log."""
