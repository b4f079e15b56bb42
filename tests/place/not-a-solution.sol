just some text
