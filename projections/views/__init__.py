"""What people read: the audit trail, the score sheet, the JSON summary, replay moments."""
