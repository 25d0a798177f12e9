#define _GNU_SOURCE
#include "crash_report.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* Everything the handler reads is set before it is installed; it only calls write(2),
 * backtrace(3) (loaded at install, so it does not allocate in the handler) and raise(3). */
static int report_fd = 2;
static char report_name[64] = "process";
static uintptr_t image_start;
static uintptr_t image_end;
static char alternate_stack[64 * 1024];

static int image_extent(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    /* The first object dl_iterate_phdr reports is the executable itself. */
    uintptr_t end = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t segment_end = (uintptr_t)info->dlpi_addr + header->p_vaddr + header->p_memsz;
        if (segment_end > end) end = segment_end;
    }
    image_start = (uintptr_t)info->dlpi_addr;
    image_end = end;
    return 1;
}

static size_t append(char *buffer, size_t used, size_t capacity, const char *text) {
    while (*text && used + 1 < capacity) buffer[used++] = *text++;
    return used;
}

static size_t append_hex(char *buffer, size_t used, size_t capacity, uintptr_t value) {
    char digits[2 * sizeof(uintptr_t)];
    int count = 0;
    do {
        digits[count++] = "0123456789abcdef"[value & 0xf];
        value >>= 4;
    } while (value && count < (int)sizeof(digits));
    used = append(buffer, used, capacity, "0x");
    while (count > 0 && used + 1 < capacity) buffer[used++] = digits[--count];
    return used;
}

static size_t append_decimal(char *buffer, size_t used, size_t capacity, int value) {
    char digits[12];
    int count = 0;
    unsigned magnitude = value < 0 ? 0u - (unsigned)value : (unsigned)value;
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude && count < (int)sizeof(digits));
    if (value < 0) used = append(buffer, used, capacity, "-");
    while (count > 0 && used + 1 < capacity) buffer[used++] = digits[--count];
    return used;
}

/* An address as an offset into the executable (what `addr2line -e EXECUTABLE` takes), or as
 * itself outside it (a shared library). */
static size_t append_address(char *buffer, size_t used, size_t capacity, uintptr_t address) {
    if (address >= image_start && address < image_end) return append_hex(buffer, used, capacity, address - image_start);
    used = append(buffer, used, capacity, "abs:");
    return append_hex(buffer, used, capacity, address);
}

static const char *signal_name(int number) {
    switch (number) {
    case SIGILL: return "SIGILL (a Swift runtime trap: overflow, index out of range, force unwrap, fatalError)";
    case SIGTRAP: return "SIGTRAP (a Swift runtime trap)";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

static uintptr_t faulting_address(void *context) {
    ucontext_t *user = context;
#if defined(__x86_64__)
    return (uintptr_t)user->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)user->uc_mcontext.pc;
#else
    (void)user;
    return 0;
#endif
}

static void report(int number, siginfo_t *info, void *context) {
    (void)info;
    char line[2048];
    size_t used = 0;
    used = append(line, used, sizeof(line), report_name);
    used = append(line, used, sizeof(line), ": fatal signal ");
    used = append_decimal(line, used, sizeof(line), number);
    used = append(line, used, sizeof(line), " ");
    used = append(line, used, sizeof(line), signal_name(number));
    used = append(line, used, sizeof(line), " at ");
    used = append_address(line, used, sizeof(line), faulting_address(context));
    used = append(line, used, sizeof(line), "; frames:");
    void *frames[40];
    int count = backtrace(frames, 40);
    for (int index = 0; index < count; index++) {
        used = append(line, used, sizeof(line), " ");
        /* Return addresses: one byte back is inside the call, the line addr2line should name. */
        used = append_address(line, used, sizeof(line), (uintptr_t)frames[index] - 1);
    }
    used = append(line, used, sizeof(line), " (offsets into the executable: addr2line -f -i -C -e EXECUTABLE OFFSET…)\n");
    ssize_t ignored = write(report_fd, line, used);
    (void)ignored;
    /* SA_RESETHAND put the default action back: dying by the same signal keeps the exit
     * status (and systemd's Restart=on-failure) what it was. */
    raise(number);
}

int ohk_crash_report_install(int fd, const char *name) {
    report_fd = fd;
    if (name) {
        strncpy(report_name, name, sizeof(report_name) - 1);
        report_name[sizeof(report_name) - 1] = 0;
    }
    dl_iterate_phdr(image_extent, NULL);
    /* glibc loads its unwinder on the first call; done here, not in the handler. */
    void *warm[2];
    (void)backtrace(warm, 2);
    /* The main thread's stack overflowing still reaches the handler; other threads have no
     * alternate stack and die by SIGSEGV unreported. */
    stack_t stack = { .ss_sp = alternate_stack, .ss_size = sizeof(alternate_stack), .ss_flags = 0 };
    sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = report;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    const int numbers[] = { SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT };
    int installed = 1;
    for (size_t index = 0; index < sizeof(numbers) / sizeof(numbers[0]); index++) {
        if (sigaction(numbers[index], &action, NULL) != 0) installed = 0;
    }
    return installed;
}
