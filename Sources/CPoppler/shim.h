// poppler-glib for Swift: the header is all Swift needs; nothing here is variadic.
#include <poppler.h>
