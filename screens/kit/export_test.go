package kit

// Cursor is the index of the selected row among those shown.
func (l *List[T]) Cursor() int { return l.cursor }
