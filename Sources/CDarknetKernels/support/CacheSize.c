/*
 * The running CPU's level-2 cache size, which the planner's cache-blocked paths size their
 * blocks against: the C library's answer (glibc reads CPUID on x86-64), else Linux's sysfs
 * description of CPU 0's caches (what arm64 Linux reports), else the macOS sysctl.
 */
#include "CDarknetKernels/cpu.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#if defined(__linux__)
/* The size of CPU 0's level-2 data or unified cache from sysfs, divided among the CPUs that
   share it; 0 when sysfs does not describe one. */
static int64_t l2_from_sysfs(void) {
    for (int index = 0; index < 8; index++) {
        char path[96], text[64];
        int level = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        FILE *file = fopen(path, "r");
        if (!file) break;
        int read = fscanf(file, "%d", &level);
        fclose(file);
        if (read != 1 || level != 2) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", index);
        if (!(file = fopen(path, "r"))) continue;
        read = fscanf(file, "%63s", text);
        fclose(file);
        if (read != 1 || strcmp(text, "Instruction") == 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        if (!(file = fopen(path, "r"))) continue;
        long long size = 0;
        char unit = 0;
        read = fscanf(file, "%lld%c", &size, &unit);
        fclose(file);
        if (read < 1 || size <= 0) continue;
        if (unit == 'K') size <<= 10;
        else if (unit == 'M') size <<= 20;
        /* A cache shared by several CPUs (a cluster's L2): each core's share. */
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_map", index);
        if ((file = fopen(path, "r"))) {
            int sharing = 0, c;
            while ((c = fgetc(file)) != EOF) {
                int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
                for (; digit > 0; digit >>= 1) sharing += digit & 1;
            }
            fclose(file);
            if (sharing > 1) size /= sharing;
        }
        return (int64_t)size;
    }
    return 0;
}
#endif

int64_t swiftdarknet_cpu_l2_cache_bytes(void) {
#if defined(__linux__)
#if defined(_SC_LEVEL2_CACHE_SIZE)
    long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (size > 0) return (int64_t)size;
#endif
    return l2_from_sysfs();
#elif defined(__APPLE__)
    int64_t size = 0;
    size_t length = sizeof size;
    /* Apple silicon: the performance cores' cluster L2, shared by the cluster's cores. */
    int64_t cores = 0;
    size_t coresLength = sizeof cores;
    if (sysctlbyname("hw.perflevel0.l2cachesize", &size, &length, NULL, 0) == 0 && size > 0) {
        if (sysctlbyname("hw.perflevel0.cpusperl2", &cores, &coresLength, NULL, 0) == 0 && cores > 1) size /= cores;
        return size;
    }
    length = sizeof size;
    return sysctlbyname("hw.l2cachesize", &size, &length, NULL, 0) == 0 && size > 0 ? size : 0;
#else
    return 0;
#endif
}
