/* seer subcommands for whole networks and the algorithm picker: seer net
 * (net.c), seer pick (pick.c), seer eval-net (eval_net.c), seer
 * eval-picker (eval_picker.c), and what they share. */
#ifndef SEER_TOOLS_NET_H
#define SEER_TOOLS_NET_H
#include "seer.h"

/* Each takes the arguments after the subcommand name and returns the
 * exit code (CLI_OK, CLI_FAIL, CLI_USAGE of cli.h). */
int seer_cli_net(int argc, char **argv);
int seer_cli_pick(int argc, char **argv);
int seer_cli_eval_net(int argc, char **argv);
int seer_cli_eval_picker(int argc, char **argv);

/* A built-in network name, a description file or an ONNX file as a
 * network (res: input resolution, 0 for the network's own); on failure
 * the exit code, having said why. */
int cli_open_net(seer_handle_t h, const char *cmd, const char *what, int res, seer_network_t *net);
/* --algo: auto, cudnn, fixed or an index; 0 (usage error said) if bad. */
int cli_parse_policy(const char *cmd, const char *s, int *policy);
/* The optimizer names, in seer_optimizer_t order, NULL-terminated
 * (seer net --optimizer, seer eval-net's optimizer column). */
extern const char *const cli_optimizers[];
#endif
