// libzip for Swift: the header only; LarderArchives wraps it (ZipArchive).
#include <zip.h>
