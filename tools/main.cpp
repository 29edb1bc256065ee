#include <iostream>

#include "tools/cli/commands.hpp"

int main(int argc, char** argv) { return warpdiv::cli::run(argc, argv, std::cout, std::cerr); }
