// libxml2 for the XML adapter: a push parser driven by SAX2 callbacks (streaming reader).
//
// Debian's libxml2 is built with ICU, so <libxml/encoding.h> includes <unicode/ucnv.h>; that ICU
// clashes with the copy Foundation bundles (`_FoundationICU`: "enum UErrorCode ... not present")
// whenever a module sees both. Ferry never touches the ICU members of xmlCharEncodingHandler (it
// only passes handler pointers back to libxml2), so the ICU include is switched off here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlmemory.h>

// libxml2 prints some errors (`xmlAddEntity: invalid redeclaration of predefined entity`) through
// its generic error function, straight to stderr, beside the structured error Ferry already turns
// into a diagnostic. Swift cannot write a C variadic function, so the silent handler lives here.
// The handler is per thread in libxml2: call this on the thread that parses.
static void ferry_xmlIgnoreGenericError(void *context, const char *message, ...) { (void)context; (void)message; }
static inline void ferry_xmlSilenceGenericErrors(void) { xmlSetGenericErrorFunc(NULL, ferry_xmlIgnoreGenericError); }
