// libcrypto (OpenSSL 3) for SHA-1 (derived UUIDs, RFC 9562 version 5) and SHA-256 (bundle fixity), through EVP.
#include <openssl/crypto.h>
#include <openssl/evp.h>
