// Node's own import(), for a test that loads built JavaScript as the executable does (the test
// runner transforms what it imports itself; a file loaded by Node's require is left alone).
module.exports = (url) => import(url);
