// tesseract C API and leptonica for Swift.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
