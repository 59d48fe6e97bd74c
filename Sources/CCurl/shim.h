// libcurl for Swift. curl_easy_setopt/curl_easy_getinfo are variadic and cannot be called from Swift:
// these typed wrappers, one per argument type, are the only C Larder adds.
#include <curl/curl.h>

typedef size_t (*larder_curl_write_callback)(char *, size_t, size_t, void *);

static inline CURLcode larder_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_setopt_write_callback(CURL *h, CURLoption o, larder_curl_write_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode larder_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode larder_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
