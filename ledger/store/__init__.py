"""Storage: the application, snapshots, integrity checks and seals."""
