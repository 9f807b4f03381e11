#ifndef SWIFTDARKNET_CZMQ_SHIM_H
#define SWIFTDARKNET_CZMQ_SHIM_H
/* libzmq's C API (contexts, sockets, messages, zmq_poll) has no variadic calls or callbacks, so
 * Swift calls it directly. */
#include <zmq.h>
#endif
