//! The plain page's script: on every input, the key's UTF-8 bytes (one TextEncoder), its hash
//! tag, a bitwise CRC16-XMODEM and the slot written into the page.
const enc = new TextEncoder();
const input = document.getElementById('key');
const out = document.querySelector('[data-testid=slot]');
const slot = (bytes) => {
  let part = bytes;
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) part = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (let i = 0; i < part.length; i++) {
    crc ^= part[i] << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc & 0x3fff;
};
input.addEventListener('input', () => {
  out.textContent = String(slot(enc.encode(input.value)));
});
