/* seer subcommands for whole networks and the algorithm picker
 * (tools/net.c): seer net, seer pick, seer eval-net, seer eval-picker. */
#ifndef SEER_TOOLS_NET_H
#define SEER_TOOLS_NET_H

/* Each takes the arguments after the subcommand name and returns the
 * exit code (CLI_OK, CLI_FAIL, CLI_USAGE of cli.h). */
int seer_cli_net(int argc, char **argv);
int seer_cli_pick(int argc, char **argv);
int seer_cli_eval_net(int argc, char **argv);
int seer_cli_eval_picker(int argc, char **argv);
#endif
