/** Where a file to post may lie: the chat family's roots. Shared by chat_post's declaration and its send, below both. */
export const fileScope = (roots: readonly string[] | undefined) => ({
  family: 'chat',
  what: 'The file',
  roots,
});
