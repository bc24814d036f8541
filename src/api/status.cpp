// SPDX-License-Identifier: MIT
// Names of status codes and the version at run time.
#include "crowdspec/crowdspec.h"

#define CS_STRINGIFY2(x) #x
#define CS_STRINGIFY(x) CS_STRINGIFY2(x)

extern "C" {

CS_API const char *cs_status_string(cs_status status) {
    switch (status) {
        case CS_OK: return "CS_OK";
        case CS_ERR_NULL_HANDLE: return "CS_ERR_NULL_HANDLE";
        case CS_ERR_NULL_POINTER: return "CS_ERR_NULL_POINTER";
        case CS_ERR_INVALID_ARGUMENT: return "CS_ERR_INVALID_ARGUMENT";
        case CS_ERR_UNKNOWN_PARAM: return "CS_ERR_UNKNOWN_PARAM";
        case CS_ERR_PARAM_RANGE: return "CS_ERR_PARAM_RANGE";
        case CS_ERR_UNKNOWN_METHOD: return "CS_ERR_UNKNOWN_METHOD";
        case CS_ERR_EMPTY_INPUT: return "CS_ERR_EMPTY_INPUT";
        case CS_ERR_INVALID_ID: return "CS_ERR_INVALID_ID";
        case CS_ERR_INVALID_LABEL: return "CS_ERR_INVALID_LABEL";
        case CS_ERR_TOO_FEW_CLASSES: return "CS_ERR_TOO_FEW_CLASSES";
        case CS_ERR_DUPLICATE: return "CS_ERR_DUPLICATE";
        case CS_ERR_BUFFER_TOO_SMALL: return "CS_ERR_BUFFER_TOO_SMALL";
        case CS_ERR_NOT_FITTED: return "CS_ERR_NOT_FITTED";
        case CS_ERR_CANCELLED: return "CS_ERR_CANCELLED";
        case CS_ERR_OUT_OF_MEMORY: return "CS_ERR_OUT_OF_MEMORY";
        case CS_ERR_INTERNAL: return "CS_ERR_INTERNAL";
        case CS_ERR_WRONG_INPUT_KIND: return "CS_ERR_WRONG_INPUT_KIND";
        case CS_ERR_NON_FINITE: return "CS_ERR_NON_FINITE";
        case CS_ERR_TOO_MANY_CLASSES: return "CS_ERR_TOO_MANY_CLASSES";
        case CS_ERR_TOO_LARGE: return "CS_ERR_TOO_LARGE";
        case CS_ERR_BUSY: return "CS_ERR_BUSY";
        case CS_ERR_CORRUPT_MODEL: return "CS_ERR_CORRUPT_MODEL";
        case CS_ERR_MODEL_VERSION: return "CS_ERR_MODEL_VERSION";
        case CS_ERR_INVALID_ANSWER: return "CS_ERR_INVALID_ANSWER";
        case CS_ERR_NOT_CONNECTED: return "CS_ERR_NOT_CONNECTED";
        default: return "CS_UNKNOWN_STATUS";
    }
}

CS_API int32_t cs_version_number(void) { return CS_VERSION_NUMBER; }

CS_API const char *cs_version_string(void) {
    return CS_STRINGIFY(CS_VERSION_MAJOR) "." CS_STRINGIFY(CS_VERSION_MINOR) "." CS_STRINGIFY(
        CS_VERSION_PATCH);
}

}  // extern "C"
