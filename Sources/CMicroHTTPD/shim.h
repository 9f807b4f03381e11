#ifndef SWIFTDARKNET_CMICROHTTPD_SHIM_H
#define SWIFTDARKNET_CMICROHTTPD_SHIM_H
/* libmicrohttpd's daemon and connection calls are variadic (an option list ended by
 * MHD_OPTION_END), which Swift cannot call; these wrappers take the options the server uses as
 * a plain struct and forward them. Everything else (responses, header lookup, suspend and
 * resume) Swift calls directly. */
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* What DarknetServe's HTTP server starts a daemon with. */
typedef struct {
    unsigned int flags;
    /* The address to listen on (struct sockaddr_in or, with MHD_USE_IPv6 in flags,
     * struct sockaddr_in6); its port 0 asks the kernel for a free one. */
    const struct sockaddr *address;
    unsigned int connectionLimit;
    /* Seconds without traffic before a connection is closed (0: never). */
    unsigned int idleTimeout;
    /* Bytes per connection for the request line, headers and I/O buffers. */
    size_t connectionMemoryLimit;
    /* Connections one client address may hold at once (0: no limit). */
    unsigned int perAddressConnectionLimit;
    unsigned int listenBacklog;
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    MHD_NotifyConnectionCallback notify;
    /* Passed to all three callbacks. */
    void *context;
} SDHTTPDaemonSettings;

static inline struct MHD_Daemon *sd_http_start(const SDHTTPDaemonSettings *s) {
    return MHD_start_daemon(s->flags, 0, NULL, NULL, s->handler, s->context,
                            MHD_OPTION_SOCK_ADDR, s->address,
                            MHD_OPTION_CONNECTION_LIMIT, s->connectionLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, s->idleTimeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->connectionMemoryLimit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->perAddressConnectionLimit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, s->listenBacklog,
                            MHD_OPTION_NOTIFY_COMPLETED, s->completed, s->context,
                            MHD_OPTION_NOTIFY_CONNECTION, s->notify, s->context,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (0 if unknown). */
static inline uint16_t sd_http_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* Connections the daemon holds now. */
static inline unsigned int sd_http_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/* The connection's socket (-1 if unknown). */
static inline int sd_http_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The client's address (NULL if unknown). */
static inline const struct sockaddr *sd_http_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}
#endif
