// libxml2 for the XML adapter: a streaming reader (xmlTextReader) and writer (xmlTextWriter).
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlmemory.h>

// Swift 6 refuses `xmlFree` itself: it is a global mutable function pointer, not concurrency-safe.
static inline void ferry_xmlFree(void *pointer) { xmlFree(pointer); }
