#include <cstdio>
int main() { std::puts("Usage: perfmonger"); return 0; }
