// libxml2's HTML parser for Swift (saved web pages). Nothing Swift calls is variadic or a macro.
//
// Debian builds libxml2 with ICU, so <libxml/encoding.h> includes the system's <unicode/ucnv.h>, which clashes
// with the ICU that Foundation bundles ("'U_…' from module '_FoundationICU' is not present in definition of
// 'enum UErrorCode'"). Undefining LIBXML_ICU_ENABLED after <libxml/xmlversion.h> keeps ICU's headers out; it
// only hides the two trailing ICU pointers of xmlCharEncodingHandler, which Larder never touches.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
