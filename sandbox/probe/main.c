/*
 * sandbox-probe: confines itself with the policy given on its command line
 * (through CSandbox, exactly as health-sandbox does), then tries to escape and
 * prints one "name: result" line per attempt. It finally re-executes itself
 * ("after_exec." lines) to show that execve still works and that the
 * confinement and the descriptor rules hold in the new program.
 *
 * --no-confine runs the same attempts unconfined: the control that shows each
 * attempt would succeed without the sandbox.
 */
#define _GNU_SOURCE

#include "CSandbox.h"
#include "escape_attempts.h"
#include "probe_output.h"
#include "probe_setup.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static int run_after_exec(const struct probe_options *o) {
    probe_set_stage_prefix("after_exec.");
    probe_line("exec_self", "ok");
    report_process_state();
    attempt_inet_socket();
    attempt_read("read_secret", o->secret_file);
    report_descriptors(o->kept_fds, o->stray_fd);
    return 0;
}

/* Confines o->confinements times (Landlock allows 16 nested layers, so a
   17th round fails after the earlier steps of that round took effect) and
   reports the last round, or the first that failed. */
static int confine(const struct probe_options *o, const struct probe_fixtures *f) {
    struct ohk_confinement confinement = {
        .keep_fds = f->kept_pair,
        .n_keep_fds = 2,
        .read_exec_paths = o->read_exec,
        .n_read_exec = o->n_read_exec,
        .read_write_paths = o->read_write,
        .n_read_write = o->n_read_write,
        .landlock_min_abi = o->min_landlock_abi,
    };
    struct ohk_confinement_report report;
    char err[512];
    int rc = 0;
    int round = 0;
    while (rc == 0 && round < o->confinements) {
        round++;
        rc = ohk_confine(&confinement, &report, err, sizeof err);
    }
    if (rc != 0) {
        probe_line("confine", "failed (%s)", err);
    } else {
        probe_line("confine", "ok");
    }
    probe_line("confine_rounds", "%d", round);
    probe_line("applied_steps", "0x%x", report.applied_steps);
    probe_line("landlock_abi", "%d", report.landlock_abi);
    probe_line("landlock_scoped", "0x%llx", (unsigned long long)report.landlock_scoped);
    return rc;
}

/* Re-executes the probe through /proc/self/exe, which needs EXECUTE on the
   probe's real path and read access to its loader and libraries. */
static void exec_second_stage(const struct probe_options *o, const struct probe_fixtures *f) {
    char kept[32], stray[16];
    snprintf(kept, sizeof kept, "%d,%d", f->kept_pair[0], f->kept_pair[1]);
    snprintf(stray, sizeof stray, "%d", f->stray_fd);
    char *const argv[] = {
        "sandbox-probe", "--after-exec", "--kept", kept, "--stray", stray,
        "--secret-file", (char *)o->secret_file, NULL,
    };
    execv("/proc/self/exe", argv);
    probe_errno_line("exec_self", errno);
}

int main(int argc, char **argv) {
    struct probe_options options;
    probe_parse_options(argc, argv, &options);
    if (options.after_exec) {
        return run_after_exec(&options);
    }

    struct probe_fixtures fixtures;
    probe_make_fixtures(&options, &fixtures);
    if (options.confine) {
        if (confine(&options, &fixtures) != 0) {
            report_process_state();
            return 3;
        }
    } else {
        probe_line("confine", "skipped");
    }

    report_process_state();
    attempt_network_escapes(&fixtures);
    attempt_process_escapes(&fixtures);
    attempt_file_escapes(&options);
    attempt_kernel_escapes(&fixtures);
    report_descriptors(fixtures.kept_pair, fixtures.stray_fd);
    exec_second_stage(&options, &fixtures);
    return 1;
}
