"""Full-screen terminal game (Textual)."""
