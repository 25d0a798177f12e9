// libxml2's push parser and SAX2 callbacks, for the export reader (AppleHealthExport's
// ExportXMLStream): Debian's libxml2-dev, the same library Foundation's XMLParser uses.
//
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's
// <unicode/ucnv.h>, whose UErrorCode clashes with the one Foundation's _FoundationICU module
// declares (a module error in every file importing both). Nothing here uses libxml2's ICU
// converters: with LIBXML_ICU_ENABLED undefined only xmlCharEncodingHandler's two trailing ICU
// pointers drop out of its declaration, a struct this module only ever holds by pointer.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
