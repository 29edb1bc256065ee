// Catching a signal the way every part of warpdiv does: never one that whoever started it ignores.
#pragma once

#include <csignal>

namespace warpdiv::sim {

/// Installs `action` for `signal` unless it is ignored now (nohup, a script's background job
/// start their commands so): an ignored signal stays ignored. Returns whether `action` was
/// installed; `previous` is the disposition before it, to restore.
bool catch_unless_ignored(int signal, const struct sigaction& action, struct sigaction& previous);

}  // namespace warpdiv::sim
