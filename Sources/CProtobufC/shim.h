// Umbrella for the CProtobufC system library module: the libprotobuf-c runtime API.
#ifndef IMWIRE_CPROTOBUFC_SHIM_H
#define IMWIRE_CPROTOBUFC_SHIM_H

#include <protobuf-c/protobuf-c.h>

#endif
