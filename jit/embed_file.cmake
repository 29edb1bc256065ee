# cmake -DIN=FILE -DOUT=FILE.cpp -DNAME=symbol -P embed_file.cmake: FILE's bytes as
# `extern const unsigned char NAME[]` and `extern const unsigned long NAME_size` in namespace
# warpdiv::jit (the native replay's lane functions' bitcode, jit/ops_lanes.cpp).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by jit/embed_file.cmake.\nnamespace warpdiv::jit {\n"
  "extern const unsigned char ${NAME}[] = {\n${bytes}};\nextern const unsigned long ${NAME}_size = ${size};\n}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
